"""Pure game rules: no Discord, no storage, no clock, no global randomness."""
