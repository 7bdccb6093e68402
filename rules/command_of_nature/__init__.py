"""Command of Nature: formations, markets, levels and Instant responses."""
