"""dix (TEN): push-your-luck, set collection and auctions, for 2–5 players or solo against ALIX."""
