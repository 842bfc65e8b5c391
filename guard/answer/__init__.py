"""Answer-time gates for RAG pipelines: locked constraints, the intent split with per-intent
contracts, and the scholar/auditor handoff. Each is deterministic in what it accepts and writes
one trace line per decision (``guard.answer.trace``)."""
