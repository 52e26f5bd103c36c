"""Checks shared by the engines' test suites (importable as ``helpers``: pytest puts tests/ on the path)."""
