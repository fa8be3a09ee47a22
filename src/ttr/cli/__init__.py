"""The `ttr` command and its sub-commands, one module each."""
