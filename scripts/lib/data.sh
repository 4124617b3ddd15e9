# Shared by the scripts that read the public puzzle sets (source it).
#
#   need_data FILE...
#     Fails the script, naming what is missing, unless every FILE (relative to
#     ../shared/data, beside the repository) is there: a drill or benchmark without its
#     puzzles must say why it cannot run, not stop later on an unrelated error.
#   data_dir
#     ../shared/data, for reading the files need_data checked.

data_dir() { echo ../shared/data; }

need_data() {
  local missing=()
  for file in "$@"; do
    [ -s "$(data_dir)/$file" ] || missing+=("$(data_dir)/$file")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    echo "$(basename "$0"): FAIL: puzzle data missing: ${missing[*]}" >&2
    echo "  (the public puzzle sets live in ../shared/data beside the repository)" >&2
    exit 1
  fi
}
