"""The metric core: what a sacrebleu user calls (tokenizers, statistics, scores, significance,
explanations). Nothing here imports pandas, Altair or Streamlit."""
