"""The negative-controls runner: each control (negative_controls/) puts a defect back into a copy of
the reference, and the runner shows the checks it names fail."""
