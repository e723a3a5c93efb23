"""The object files a CMake build directory's current compile commands
produce (compile_commands.json, CMAKE_EXPORT_COMPILE_COMMANDS): what
scripts/layers.py reads and scripts/prune-objects.py keeps."""
import json
import os
import shlex


def object_sources(build):
    """{absolute path of an object: absolute path of its source} for the
    objects the build's compile commands write."""
    with open(os.path.join(build, "compile_commands.json")) as f:
        commands = json.load(f)
    objs = {}
    for c in commands:
        args = c.get("arguments") or shlex.split(c["command"])
        out = c.get("output") or args[args.index("-o") + 1]
        src = os.path.normpath(os.path.join(c["directory"], c["file"]))
        objs[os.path.normpath(os.path.join(c["directory"], out))] = src
    return objs


def current_objects(build):
    """Absolute paths of the objects the build's compile commands write."""
    return set(object_sources(build))
