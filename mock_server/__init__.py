"""Stateful mock of the Collection-Sharing Service (Connexion 3 app, store, handlers, views).

Built in issue 3; see ARCHITECTURE.md for the layers.
"""
