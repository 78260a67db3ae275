"""The pack's ops as PyLayer Functions (one module per op family)."""
