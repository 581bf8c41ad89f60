"""The records the store holds: plain dataclasses, one per kind of thing in the spec.

They hold only what cannot be derived; counts, urls, owner fields and permissions are
computed by the store and the views when asked. Field names are the snapshot format
(`Store.snapshot()`), which the fixtures generate too.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime


@dataclass(slots=True)
class Account:
    """A user or a team: they share one id sequence, and a team can own and collaborate."""

    id: int
    kind: str  # "user" | "team"
    name: str
    username: str
    email: str | None  # a user's primary address; a team's contact address
    plan: str  # "free" | "pro" | "team"
    created_at: datetime
    password: str = ""
    token: str = ""
    custom_domain: str | None = None
    status: str = "active"
    plan_active: bool = True
    labels: bool = True
    sort_by: str | None = None
    sort_order: str | None = None
    view_mode: str = "tile"
    # teams only
    members: dict[int, str] = field(default_factory=dict)  # user id -> "manager" | "user"
    billing_email: str | None = None
    plan_quantity: int = 0
    feed_key: str = ""
    quota: int = 0

    @property
    def is_team(self) -> bool:
        return self.kind == "team"

    @property
    def paid(self) -> bool:
        return self.plan != "free"


@dataclass(slots=True)
class Email:
    id: int
    user_id: int
    email: str


@dataclass(slots=True)
class Collection:
    id: int
    owner_id: int
    name: str
    type: str  # "private" | "public" | "global"
    created_at: datetime
    updated_at: datetime
    last_accessed_at: datetime
    description: str | None = None
    sort: int = 0
    sort_by: str | None = None
    sort_order: str | None = None
    view_mode: str = "tile"
    thumbnail: str | None = None
    labels: bool = True
    highlighted: bool = False
    archived: bool = False
    # account id -> is_subscribed (New Comment notifications); insertion order is listing order
    collaborators: dict[int, bool] = field(default_factory=dict)


@dataclass(slots=True)
class Item:
    id: int
    collection_id: int
    user_id: int
    type: str
    name: str
    content: str
    created_at: datetime
    updated_at: datetime
    parent_id: int | None = None
    description: str | None = None
    link: str = ""
    preview: str | None = None
    thumbnail: str | None = None
    shareable: bool | None = None
    size: int = 0
    sort: int = 0
    mime: str = ""
    latitude: float | None = None
    longitude: float | None = None
    deleted_at: datetime | None = None
    metadata: dict[str, str] = field(default_factory=dict)


@dataclass(slots=True)
class Tag:
    id: int
    item_id: int
    name: str
    created_at: datetime


@dataclass(slots=True)
class Comment:
    id: int
    item_id: int
    user_id: int
    body: str
    created_at: datetime
    updated_at: datetime


@dataclass(slots=True)
class Reaction:
    id: int
    item_id: int
    user_id: int
    created_at: datetime


@dataclass(slots=True)
class Notification:
    id: int
    kind: str  # "new_comment"
    user_id: int  # who is notified
    comment_id: int
    item_id: int
    collection_id: int
    created_at: datetime
