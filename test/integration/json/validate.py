#!/usr/bin/python3
# SPDX-License-Identifier: BSD-2-Clause
"""validate.py SCHEMA FILE...: checks each JSON FILE mapreport wrote
against the JSON Schema SCHEMA (share/mapsample/mapreport.schema.json)
with Debian's python3-jsonschema; prints every violation with its path
and exits 1 if there is one, 77 (skip) when jsonschema is missing."""
import json
import sys

try:
    import jsonschema
except ImportError:
    print("SKIP: python3-jsonschema missing (Debian package)")
    sys.exit(77)

schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)
bad = 0
for path in sys.argv[2:]:
    doc = json.load(open(path))
    # the branch of oneOf a document claims, for messages that say why
    branch = {"mapsample-report": "report", "mapsample-compare": "compare"}
    sub = dict(schema["$defs"][branch.get(doc.get("schema"), "report")])
    sub["$defs"] = schema["$defs"]
    for e in jsonschema.Draft202012Validator(sub).iter_errors(doc):
        print("%s: %s: %s" % (path, "/".join(map(str, e.absolute_path)),
                              e.message))
        bad += 1
    if not validator.is_valid(doc):
        bad += 1
        print("%s: not valid against the schema" % path)
sys.exit(1 if bad else 0)
