"""String argument values that spell a literal are coerced before the call.

A runtime "helps" models that quote their booleans: a top-level string value "true", "false",
"null" or "none" (any case, any padding) reaches the tool as true, false or null. The tool then
gets values the model never sent (agno 3.1.10 does this: agno/utils/functions.py:55-65).
"""

from toolproof.controls.control import Control, Patch

CONTROL = Control(
    name="args-literal-strings-coerced",
    provenance="public-bug",
    bug="top-level string values 'true'/'false'/'null'/'none' become true/false/null before the call",
    source="agno 3.1.10 agno/utils/functions.py:55-65 (measured by the agno adapter's precision review)",
    kills=("args.object-arrives",),
    patches=(
        Patch(
            file="arguments.py",
            old="    if isinstance(value, dict):\n        return value\n",
            new=(
                "    if isinstance(value, dict):\n"
                '        spelled = {"true": True, "false": False, "null": None, "none": None}\n'
                "        return {\n"
                "            k: spelled[v.strip().lower()]\n"
                "            if isinstance(v, str) and v.strip().lower() in spelled\n"
                "            else v\n"
                "            for k, v in value.items()\n"
                "        }\n"
            ),
        ),
    ),
)
