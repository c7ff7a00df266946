"""What every language's generator shares: naming (case rules, reserved words and escaping
per language, file names), literal formatting, documentation comments. The wire layout
is not here: it is fastwire.lower's, and generators read it from there."""
