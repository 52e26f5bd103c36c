"""The companion application: CLI, the camera -> vision -> engine -> signals loop, store and web app."""
