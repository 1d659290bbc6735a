"""The app's face of the evaluation service: every metric of the loaded data, segment scores of the
session, significance and learned-metric runs, cached for every session of the server."""
