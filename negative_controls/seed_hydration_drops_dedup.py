"""Hydration drops `dedup_key` / `dedup_preferred` (seed ru §5a, maintainer commit f8011c1).

The second dedup fix was dead in production: the registered config was
hydrated into the build-time config without the two dedup fields, so the
build path never deduplicated, and a unit test that called the dedup
function directly stayed green. Through the public build path the two balda
servers both survive: their identical tool names fail the build (or, in a
runtime that shadows, the plain URL without the token is contacted).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="seed-hydration-drops-dedup",
    provenance="seed",
    bug="hydrate_server_config copies url and headers but not dedup_key/dedup_preferred",
    source="seed ru §5a; upstream TestHydrateMCPServerConfigPreservesDedupMetadata",
    kills=(
        "dedup.balda-scoped-only",
        # No server keeps its key, so no group forms anywhere on the build path:
        "dedup.collapse-contacts-survivor-only",
        "dedup.preferred-survives",
        "dedup.preferred-survives-any-ids",
        "dedup.smallest-id-survives",
        "dedup.survivor-own-endpoint",
        "dedup.conflict-at-build",
        "err.reference-message-dedup-conflict",
    ),
    patches=(
        Patch(
            file="hydrate.py",
            old=(
                "        dedup_key=registered.dedup_key,\n"
                "        dedup_preferred=registered.dedup_preferred,\n"
            ),
            new="",
        ),
    ),
)
