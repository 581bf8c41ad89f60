"""Why a change is of its class, in a user's words ("a client that sends no `x` now gets 400").

A reason is picked by rule, direction and class, and names its subject: the property the change is
in (from its pointer), else where it is (a parameter, the request body, a response).
"""

from __future__ import annotations

import re

from .model import Classification, Direction, Finding

BR, OB, CO = "breaking", "obligation", "compatible"
REQUEST, RESPONSE = "request", "response"

_REASONS: dict[tuple[str, str, str], str] = {
    # requests a client that follows OLD sends, refused by a server that follows NEW
    ("required-added", REQUEST, BR): "a client that sends no {s} now gets 400",
    ("property-added", REQUEST, BR): "a client that sends no {s} (OLD did not have it) now gets 400",
    ("property-removed", REQUEST, BR): "a client that sends {s} now gets 400 (the object is closed)",
    ("parameter-added", REQUEST, BR): "a request without {s} now gets 400",
    ("parameter-required", REQUEST, BR): "a request without {s} now gets 400",
    ("parameter-removed", REQUEST, BR): (
        "a client that sends {s} can now get 400 (servers refuse unknown parameters) or have it ignored"
    ),
    ("parameter-style", REQUEST, BR): "a client that encodes {s} as OLD says is now misread or refused",
    ("enum-value-removed", REQUEST, BR): "a client that sends a removed value of {s} now gets 400",
    ("bound-tightened", REQUEST, BR): (
        "a client that sends {s} within the old bound but not the new one gets 400"
    ),
    ("type-changed", REQUEST, BR): "a client that sends {s} as OLD types it now gets 400",
    ("format-changed", REQUEST, BR): "a value of {s} valid under OLD can now get 400",
    ("pattern-changed", REQUEST, BR): "a value of {s} valid under OLD can now get 400",
    ("multiple-of", REQUEST, BR): "a value of {s} valid under OLD can now get 400",
    ("unique-items", REQUEST, BR): "a client that sends repeated values in {s} now gets 400",
    ("nullable", REQUEST, BR): "a client that sends null for {s} now gets 400",
    ("additional-properties", REQUEST, BR): "a client that sends fields OLD allowed in {s} now gets 400",
    ("not-changed", REQUEST, BR): "a payload valid under OLD can now match `not` and get 400",
    ("alternative-removed", REQUEST, BR): (
        "a client that sends what only the removed alternative allowed gets 400"
    ),
    ("alternative-added", REQUEST, BR): (
        "a payload that matched one oneOf alternative may now match two, which oneOf refuses (400)"
    ),
    ("alternatives-rearranged", REQUEST, BR): (
        "the alternatives changed in ways the rules cannot pair up: a payload valid under OLD may be refused"
    ),
    ("request-body-added", REQUEST, BR): "a client that sends no body now gets 400",
    ("request-body-required", REQUEST, BR): "a client that sends no body now gets 400",
    ("request-body-removed", REQUEST, BR): "a client that sends a body can now get 400 or 415",
    ("media-type-removed", REQUEST, BR): "a client that sends {s} in this media type now gets 415",
    ("security-requirement-removed", REQUEST, BR): "a client that sends only those credentials now gets 401",
    ("security-scheme-changed", REQUEST, BR): (
        "a client that sends credentials as OLD describes them gets 401"
    ),
    ("operation-removed", REQUEST, BR): "a client that calls it now gets 404 or 405",
    # answers a server that follows NEW may give, which a client that follows OLD cannot read
    ("property-removed", RESPONSE, BR): "a client that reads {s} no longer gets it",
    ("required-removed", RESPONSE, BR): "a client that reads {s} may not get it any more",
    ("nullable", RESPONSE, BR): "a client that reads {s} may now get null",
    ("enum-value-added", RESPONSE, BR): "a client that reads {s} may now get a value it does not know",
    ("enum-value-removed", RESPONSE, BR): "a client that reads {s} may now get a value it does not know",
    ("type-changed", RESPONSE, BR): "a client that reads {s} may now get a value of another type",
    ("format-changed", RESPONSE, BR): "a client that reads {s} may now get a value in another format",
    ("pattern-changed", RESPONSE, BR): "a client that reads {s} may now get a value in another format",
    ("bound-loosened", RESPONSE, BR): (
        "a client that reads {s} may now get a value outside the bound it knows"
    ),
    ("additional-properties", RESPONSE, BR): "a client that reads {s} may now get fields OLD said never come",
    ("alternative-added", RESPONSE, BR): (
        "a client may now get a payload that matches none of the shapes it knows"
    ),
    ("response-added", RESPONSE, BR): "a client may now get a success status it was not told to expect",
    ("header-removed", RESPONSE, BR): "a client that reads the header no longer gets it",
    ("header-required", RESPONSE, BR): "a client that reads the header may not get it any more",
    ("media-type-removed", RESPONSE, BR): "a client that asks for this media type no longer gets it",
    # obligations: servers must do more, no client that follows OLD can fail
    ("property-added", REQUEST, OB): "servers must now act on {s}; clients that leave it out are unaffected",
    ("parameter-added", REQUEST, OB): "servers must now honour {s}; requests without it work as before",
    ("required-removed", REQUEST, OB): (
        "servers must now accept requests without {s}; clients that send it are unaffected"
    ),
    ("parameter-required", REQUEST, OB): "servers must now accept requests without {s}",
    ("request-body-required", REQUEST, OB): "servers must now accept requests without a body",
    ("enum-value-added", REQUEST, OB): (
        "servers must now accept the new value(s) of {s}; what clients send still works"
    ),
    ("operation-added", REQUEST, OB): "servers must implement it; existing clients do not call it",
    ("security-requirement-added", REQUEST, OB): (
        "servers must accept the new credentials; what clients send still works"
    ),
    ("required-added", RESPONSE, OB): "servers must now always answer {s}; clients lose nothing they read",
    ("property-added", RESPONSE, OB): "servers must now always answer {s}; clients lose nothing they read",
    ("response-removed", RESPONSE, OB): (
        "servers no longer answer this status; clients that handle it never see it"
    ),
    ("header-added", RESPONSE, OB): "servers must now send the header; clients lose nothing they read",
    ("header-required", RESPONSE, OB): (
        "servers must now always send the header; clients lose nothing they read"
    ),
    # compatible
    ("response-added", RESPONSE, CO): "an error status: clients read an unknown one as the x00 of its class",
    ("property-added", RESPONSE, CO): "an optional field: clients ignore fields they do not know",
    ("header-added", RESPONSE, CO): "an optional header: clients ignore headers they do not know",
    ("path-parameter-renamed", REQUEST, CO): "the URL on the wire is the same",
    ("operation-id-changed", REQUEST, CO): (
        "not on the wire; implementations routed by operationId (the mock's handlers) must follow"
    ),
    ("deprecated", REQUEST, CO): "it still works; clients should plan to move away",
    ("deprecated", RESPONSE, CO): "it still works; clients should plan to move away",
    ("default-changed", REQUEST, CO): (
        "the same values are valid; a client that leaves {s} out now gets the new default's behaviour"
    ),
    # schemas by meaning (issue 23, owner B)
    ("default-changed", REQUEST, BR): (
        "a client that leaves {s} out now gets other behaviour (the default changed or is gone)"
    ),
    ("default-changed", RESPONSE, CO): "a default in an answer means nothing: servers send the value",
    ("read-only", REQUEST, BR): "a client that sends {s} may now have it refused or ignored: it is readOnly",
    ("read-only", REQUEST, OB): "servers must now accept {s} in requests; clients that omit it lose nothing",
    ("write-only", RESPONSE, BR): "a client that reads {s} may no longer get it: it is writeOnly",
    ("alternative-added", REQUEST, OB): (
        "servers must now accept payloads of the new alternative; what clients send still matches an old one"
    ),
    ("alternative-added", RESPONSE, OB): (
        "its payloads now match two alternatives, which oneOf refuses: servers answer less"
    ),
    ("alternative-removed", REQUEST, OB): (
        "servers must now accept payloads that matched it and another alternative (OLD's oneOf refused them)"
    ),
    ("alternative-removed", RESPONSE, BR): (
        "a client may now get a payload that matches two alternatives, which OLD's oneOf refused"
    ),
    ("conditional-changed", REQUEST, BR): "a payload valid under OLD may now fail the if/then/else (400)",
    ("conditional-changed", RESPONSE, BR): "a client may now get a payload OLD's if/then/else refused",
    ("discriminator-changed", REQUEST, BR): (
        "servers pick the alternative by the discriminator: a payload OLD accepted may now be refused"
    ),
    ("discriminator-changed", RESPONSE, BR): (
        "clients pick the alternative by the discriminator: an answer may now be read as another alternative"
    ),
    ("union-changed", REQUEST, BR): (
        "a client that sends a payload matching none of the alternatives now gets 400"
    ),
    ("union-changed", REQUEST, OB): (
        "servers must now accept payloads matching none of the old alternatives; what clients send works"
    ),
    ("union-changed", RESPONSE, BR): (
        "a client may now get a payload that matches none of the alternatives it knows"
    ),
    ("union-changed", RESPONSE, OB): (
        "servers must now answer payloads matching the alternatives; everything clients read was valid before"
    ),
    ("contains-changed", REQUEST, BR): "an array {s} valid under OLD may now lack what `contains` asks for",
    ("dependent-required", REQUEST, BR): "a client that sends a property without those it now needs gets 400",
    ("content-changed", REQUEST, BR): "a value of {s} encoded as OLD says can now get 400",
    ("content-changed", RESPONSE, BR): "a client that reads {s} may now get it encoded otherwise",
    # outside schemas (issue 23, owner C)
    ("parameter-serialization", REQUEST, BR): (
        "a client that writes {s} as OLD says is now misread or refused"
    ),
    ("allow-empty-value", REQUEST, BR): "a client that sends {s} with an empty value now gets 400",
    ("allow-empty-value", REQUEST, OB): "servers must now accept {s} with an empty value",
    ("allow-reserved", REQUEST, BR): (
        "a client that sends reserved characters in {s} unencoded is now misread"
    ),
    ("allow-reserved", REQUEST, OB): (
        "servers must now read reserved characters in {s} unencoded; percent-encoded values work as before"
    ),
    ("encoding-changed", REQUEST, BR): "a client that writes the part as OLD says is now misread or refused",
    ("encoding-changed", RESPONSE, BR): "a client that reads the part as OLD says may now misread it",
    ("security-scopes-added", REQUEST, BR): "a client whose token lacks the new scope(s) now gets 403",
    ("security-scopes-removed", REQUEST, OB): "servers must now accept tokens without the scope(s)",
    ("oauth-flow-added", REQUEST, OB): (
        "servers must accept tokens of the new flow; the old flows work as before"
    ),
    ("oauth-flow-removed", REQUEST, BR): "a client that gets its token by the removed flow can no longer",
    ("oauth-flow-url-changed", REQUEST, BR): (
        "a client that asks for tokens where OLD says no longer gets them"
    ),
    ("oauth-scope-added", REQUEST, OB): "the authorization server must grant the new scope",
    ("oauth-scope-removed", REQUEST, BR): (
        "a client that asks for the removed scope no longer gets a token with it"
    ),
    # a response that had no content now has a body (issue 23: webhooks answer it, roles inverted)
    ("response-body-added", RESPONSE, OB): (
        "servers must now answer with a body; clients that expect none ignore it"
    ),
    ("response-body-added", REQUEST, BR): (
        "a client that answers with no body, as OLD said, may now have its answer refused"
    ),
}

_FALLBACK = {
    (REQUEST, BR): "a request valid under OLD ({s}) can now be refused (400)",
    (RESPONSE, BR): "a client may now get an answer ({s}) OLD did not allow, and fail to read it",
    (REQUEST, OB): "servers must now accept more ({s}); what clients send today still works",
    (RESPONSE, OB): "servers must now answer within less ({s}); everything clients read was valid before",
    (REQUEST, CO): "nothing a client sends or reads changes",
    (RESPONSE, CO): "nothing a client sends or reads changes",
}


def reason(finding: Finding, direction: Direction, classification: Classification, context: str) -> str:
    if finding.why:
        return finding.why
    key = (finding.rule, direction.value, classification.value)
    template: str = _REASONS.get(key) or _FALLBACK[(direction.value, classification.value)]
    return template.format(s=f"`{finding.subject}`" if finding.subject else subject(finding.pointer, context))


def subject(pointer: str, context: str) -> str:
    """`notify` for a change in .../properties/notify/..., else the context ("query parameter `sort`")."""
    names: list[str] = re.findall(r"/properties/([^/]+)", pointer)
    if names:
        return "`" + names[-1].replace("~1", "/").replace("~0", "~") + "`"
    if context.startswith("response"):
        return "the " + context.split(":")[0] + " body"
    return context or "the value"
