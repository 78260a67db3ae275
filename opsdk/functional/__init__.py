"""The core ops, each with its gradient rule beside its forward."""
