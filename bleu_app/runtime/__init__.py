"""How the app runs inside Streamlit: server-wide caches keyed on content, and fixes to Streamlit
itself."""
