"""The configured model name is replaced by a built-in default.

The same class of bug as the seed's hydration defect (seed ru §5a): a value
of CONFIG is dropped on the way from the user's config to the code that uses
it, and a unit test below the public build path cannot see it.
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="proto-config-model-ignored",
    provenance="seed",
    bug="chat.completions requests name a hard-coded model instead of CONFIG's model.name",
    source="seed ru §5a (config dropped between parse and use)",
    kills=("proto.model-settings-from-config",),
    patches=(
        Patch(
            file="model.py",
            old='{"model": model_name, "messages": messages}',
            new='{"model": "gpt-4o-mini", "messages": messages}',
        ),
    ),
)
