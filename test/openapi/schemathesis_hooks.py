"""schemathesis hooks for the gateway (loaded by scripts/schemathesis.sh through SCHEMATHESIS_HOOKS).
Each is narrowed to one check (or one kind of body) and explained in docs/openapi.md ("schemathesis").

Bodies: the gateway's JSON parser refuses prototype-poisoning keys with 400 wherever they appear: a
`__proto__` key, or a `constructor` object holding `prototype` (Fastify's protoAction and
constructorAction `error`; docs/openapi.md, "schemathesis"). Open request objects accept every
other key, so generated bodies that carry one are dropped here instead of being sent as valid data.
"""

import schemathesis


def _carries_forbidden_key(value):
    if isinstance(value, dict):
        for key, inner in value.items():
            if key == "__proto__":
                return True
            if key == "constructor" and isinstance(inner, dict) and "prototype" in inner:
                return True
            if _carries_forbidden_key(inner):
                return True
    elif isinstance(value, list):
        return any(_carries_forbidden_key(item) for item in value)
    return False


@schemathesis.hook
def filter_body(context, body):
    return not _carries_forbidden_key(body)


@schemathesis.hook
def filter_failure(context, failure, case, response):
    if failure.code != "ST204":  # unsupported_method: an undeclared method should get 405
        return True
    # The retired /v1/systemone answers every method it can read with 410 (an @All route), by spec.
    return case.operation.path != "/v1/systemone"
