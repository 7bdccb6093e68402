"""The screenshot gallery: what players see, regenerated in a headless browser.

`.venv/bin/python -m tests.gallery [--out DIR]`; not part of the pytest run.
"""
