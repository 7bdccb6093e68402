"""Arbiter's process: the services in `service/` (no discord there), and beside them
the Discord side: the app, the publisher, the components and the renderers."""
