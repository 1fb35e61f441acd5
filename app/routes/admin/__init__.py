"""The admin area: sign-in, and one guarded router per area (offers, providers, GPU models, import and
export, audit)."""
