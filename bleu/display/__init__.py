"""How numbers and user text are shown: each column's number rule and help, and escaping of user
text for Markdown, HTML and CSV (used by the explore and teaching views, the charts and the
app)."""
