"""What the app's pages show, computed without Streamlit: dashboard, sentences, comparisons,
teaching, brevity, sensitivity, external scores and correlations, the HTML report."""
