"""The saga's archive: who reads it, filters, pages, the exports (archive JSON, Markdown recap), the import.

The history page and the first export (`history.json`) are `combat.history`'s; this package holds what
they share and everything built since.
"""
