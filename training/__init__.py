"""Fine-tuning and evaluating the NLI gate's cross-encoder (stage 3)."""
