"""Widgets the pages share: the sidebar, uploads, tables, charts, the exploring and teaching
panels."""
