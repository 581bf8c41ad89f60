"""Comments (spec 4.5), with New Comment notifications, and reactions (spec 4.6).

Anyone who can see an item may comment on it and like it (a comment or a like does not
change the collection); only the author edits a comment, the author or the collection's
owner deletes it, and only the liker takes a like back.
"""

from __future__ import annotations

from ..errors import Conflict, Forbidden, NotFound
from .access import OWNER
from .items import ItemsMixin
from .records import Account, Comment, Notification, Reaction


class CommentsMixin(ItemsMixin):
    # ------------------------------------------------------------------ 4.5 comments
    def list_comments(self, caller: Account, item_id: int) -> list[Comment]:
        return self.item_comments(self.get_item(caller, item_id).id)

    def create_comment(self, caller: Account, item_id: int, body: str, notify: bool = False) -> Comment:
        item = self.get_item(caller, item_id)
        now = self.now()
        comment = Comment(self.next_id("comments"), item.id, caller.id, body, now, now)
        self.comments[comment.id] = comment
        self._comments_of.setdefault(item.id, {})[comment.id] = None
        self.index_text(comment)
        if notify:
            self._notify_new_comment(comment)
        return comment

    def update_comment(self, caller: Account, comment_id: int, body: str) -> Comment:
        comment = self._visible_comment(caller, comment_id)
        if comment.user_id != caller.id:
            raise Forbidden("Only its author may edit a comment.")
        comment.body, comment.updated_at = body, self.now()
        self.index_text(comment)
        return comment

    def delete_comment(self, caller: Account, comment_id: int) -> None:
        comment = self._visible_comment(caller, comment_id)
        collection = self.collections[self.items[comment.item_id].collection_id]
        if comment.user_id != caller.id and self.role(caller, collection) != OWNER:
            raise Forbidden("Only its author or the collection's owner may delete a comment.")
        del self.comments[comment.id]
        self._comments_of[comment.item_id].pop(comment.id, None)
        self.unindex_text(comment)

    def _visible_comment(self, caller: Account, comment_id: int) -> Comment:
        comment = self.comments.get(comment_id)
        if comment is None or not self.can_see_item(caller, comment.item_id):
            raise NotFound(f"Comment {comment_id} was not found.")
        return comment

    def _notify_new_comment(self, comment: Comment) -> None:
        """One notification per opted-in collaborator (the owner included), not the author.

        A team among the collaborators stands for its members.
        """
        collection = self.collections[self.items[comment.item_id].collection_id]
        entries = [(collection.owner_id, True), *collection.collaborators.items()]
        notified: dict[int, None] = {}
        for account_id, subscribed in entries:
            account = self.accounts[account_id]
            if subscribed:
                notified.update(dict.fromkeys(sorted(account.members) if account.is_team else [account.id]))
        notified.pop(comment.user_id, None)
        for user_id in notified:
            note = Notification(
                self.next_id("notifications"), "new_comment", user_id, comment.id, comment.item_id,
                collection.id, comment.created_at,
            )  # fmt: skip
            self.notifications[note.id] = note

    # ------------------------------------------------------------------ 4.6 reactions
    def list_reactions(self, caller: Account, item_id: int) -> list[Reaction]:
        return self.item_reactions(self.get_item(caller, item_id).id)

    def create_reaction(self, caller: Account, item_id: int) -> Reaction:
        """A like; a second like of the same item by the same user is a 409."""
        item = self.get_item(caller, item_id)
        if any(r.user_id == caller.id for r in self.item_reactions(item.id)):
            raise Conflict(f"You already like item {item_id}.")
        reaction = Reaction(self.next_id("reactions"), item.id, caller.id, self.now())
        self.reactions[reaction.id] = reaction
        self._reactions_of.setdefault(item.id, {})[reaction.id] = None
        return reaction

    def delete_reaction(self, caller: Account, reaction_id: int) -> None:
        reaction = self.reactions.get(reaction_id)
        if reaction is None or not self.can_see_item(caller, reaction.item_id):
            raise NotFound(f"Reaction {reaction_id} was not found.")
        if reaction.user_id != caller.id:
            raise Forbidden("Only the user who liked may take the like back.")
        del self.reactions[reaction.id]
        self._reactions_of[reaction.item_id].pop(reaction.id, None)
