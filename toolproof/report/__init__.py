"""Report model and one renderer per format; renderers never see pytest objects."""
