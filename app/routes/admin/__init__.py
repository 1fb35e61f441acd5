"""The admin area: one guarded router per area (sign-in, offers, providers, GPU models, import and export, audit)."""
