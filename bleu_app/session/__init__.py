"""The session's state: option keys and their defaults, the loaded data set, the URL, workspaces
and their cookies."""
