"""What the teaching pages show, as data: BLEU broken down step by step, exercises and their
feedback, the brevity penalty, blind spots, reading a score, the glossary and the handout."""
