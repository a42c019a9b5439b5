"""Passkeys (WebAuthn, through the ``webauthn`` package): an account adds one while signed
in, and signs in with it later without typing a name (a discoverable credential).

Each ceremony is two requests: ``begin`` hands out options with a fresh challenge, kept
server-side in the database (so that any process may take the ``finish``), single use,
expiring after :attr:`AccountLimits.challenge_seconds`, at most
:attr:`AccountLimits.challenges` live at once; ``finish`` takes the challenge back and
checks the browser's answer against it, the relying party's id (the host name the page
was loaded from) and the page's origin.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import time
from collections.abc import Mapping
from dataclasses import dataclass

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import bytes_to_base64url
from webauthn.helpers.structs import (
    AuthenticatorSelectionCriteria,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from rummykit.server.accounts import Accounts, Busy, Signed
from rummykit.server.store.accounts import AccountRow, Passkey, Taken

__all__ = ["Ceremony", "PasskeyRefused", "Passkeys", "RelyingParty"]


class PasskeyRefused(Exception):
    """The browser's answer does not check out (or its challenge is unknown or spent)."""


@dataclass(frozen=True, slots=True)
class RelyingParty:
    """Who asks for a passkey: the host name (the WebAuthn ``rp.id``) and the page's
    origin, both from the request that the page made."""

    id: str
    origin: str
    name: str = "rummykit"


@dataclass(frozen=True, slots=True)
class Ceremony:
    """A ``begin``'s answer: the challenge's id (sent back with ``finish``) and the options
    for ``navigator.credentials`` (as the WebAuthn JSON: binary fields in base64url)."""

    challenge: str
    options: Mapping[str, object]

    def to_json(self) -> dict[str, object]:
        return {"challenge": self.challenge, "options": dict(self.options)}


class Passkeys:
    """The passkeys of :class:`Accounts`."""

    def __init__(self, accounts: Accounts) -> None:
        self.accounts = accounts
        self.db = accounts.db
        self.limits = accounts.limits

    async def _keep(self, purpose: str, account: str | None, challenge: bytes) -> str:
        now = time.time()
        challenge_id = secrets.token_urlsafe(18)
        kept = await self.db.add_challenge(
            challenge_id,
            purpose,
            account,
            challenge,
            now + self.limits.challenge_seconds,
            now,
            self.limits.challenges,
        )
        if not kept:
            raise Busy("too many passkey requests at once: try again in a moment")
        return challenge_id

    async def register_begin(self, signed: Signed, rp: RelyingParty) -> Ceremony:
        """Options to make a passkey for the signed-in account."""
        account = signed.account
        have = await self.db.passkeys(account.id)
        if len(have) >= self.limits.passkeys:
            raise ValueError(f"an account has {self.limits.passkeys} passkeys at most")
        options = generate_registration_options(
            rp_id=rp.id,
            rp_name=rp.name,
            user_name=account.name,
            user_id=account.id.encode(),
            user_display_name=account.name,
            authenticator_selection=AuthenticatorSelectionCriteria(
                resident_key=ResidentKeyRequirement.REQUIRED,
                user_verification=UserVerificationRequirement.PREFERRED,
            ),
            exclude_credentials=[
                PublicKeyCredentialDescriptor(id=_bytes(k)) for k in have if _bytes(k)
            ],
        )
        challenge_id = await self._keep("register", account.id, options.challenge)
        return Ceremony(challenge_id, json.loads(options_to_json(options)))

    async def register_finish(
        self, signed: Signed, challenge_id: str, credential: Mapping[str, object], rp: RelyingParty
    ) -> str:
        """Check the browser's new credential and keep it; its id. PasskeyRefused."""
        taken = await self.db.take_challenge(challenge_id, "register", time.time())
        if taken is None or taken[0] != signed.account.id:
            raise PasskeyRefused("the passkey request is unknown or has expired: begin again")
        challenge = taken[1]
        try:
            verified = await asyncio.to_thread(
                verify_registration_response,
                credential=dict(credential),
                expected_challenge=challenge,
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
            )
        except Exception as exc:  # whatever fails to check out is refused, never a 500
            raise PasskeyRefused(
                f"the passkey was not accepted ({exc.__class__.__name__})"
            ) from None
        key = Passkey(
            bytes_to_base64url(verified.credential_id),
            signed.account.id,
            verified.credential_public_key,
            verified.sign_count,
        )
        try:
            kept = await self.db.add_passkey(key, time.time(), self.limits.passkeys)
        except Taken:
            raise PasskeyRefused("this passkey is kept already") from None
        if not kept:
            raise ValueError(f"an account has {self.limits.passkeys} passkeys at most")
        return key.id

    async def login_begin(self, rp: RelyingParty) -> Ceremony:
        """Options to sign in with any passkey of this site the browser has."""
        options = generate_authentication_options(
            rp_id=rp.id, user_verification=UserVerificationRequirement.PREFERRED
        )
        challenge_id = await self._keep("login", None, options.challenge)
        return Ceremony(challenge_id, json.loads(options_to_json(options)))

    async def login_finish(
        self, challenge_id: str, credential: Mapping[str, object], rp: RelyingParty
    ) -> tuple[AccountRow, str]:
        """The account whose passkey signed the challenge, and a new session's secret."""
        taken = await self.db.take_challenge(challenge_id, "login", time.time())
        raw_id = credential.get("id")
        if taken is None or not isinstance(raw_id, str) or len(raw_id) > 1400:
            raise PasskeyRefused("the passkey request is unknown or has expired: begin again")
        found = await self.db.passkey(raw_id)
        if found is None:
            raise PasskeyRefused("this passkey belongs to no account here")
        key, account = found
        try:
            verified = await asyncio.to_thread(
                verify_authentication_response,
                credential=dict(credential),
                expected_challenge=taken[1],
                expected_rp_id=rp.id,
                expected_origin=rp.origin,
                credential_public_key=key.public_key,
                credential_current_sign_count=key.sign_count,
            )
        except Exception as exc:  # whatever fails to check out is refused, never a 500
            raise PasskeyRefused(
                f"the passkey was not accepted ({exc.__class__.__name__})"
            ) from None
        await self.db.used_passkey(key.id, verified.new_sign_count, time.time())
        return account, await self.accounts.new_session(account)


def _refusal(exc: Exception) -> str:
    return f"the passkey was not accepted ({exc.__class__.__name__})"


def _bytes(text: str) -> bytes:
    """A base64url id as bytes (b"" if it is not one)."""
    import base64

    try:
        return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except ValueError:
        return b""
