"""The negative-controls runner: each control (negative_controls/) puts a historical bug back into a
copy of the reference, and the runner shows the checks it names fail."""
