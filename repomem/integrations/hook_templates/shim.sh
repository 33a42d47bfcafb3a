#!/bin/sh
# repomem git hook: notes that indexing is due and hands it to the daemon or a detached worker,
# then returns.  It never makes a git command fail and never waits for indexing.
# ID: repomem-@ID@
# `repomem hooks uninstall` removes it and restores the hook kept as @HOOK@.legacy (run first).
HOOK=@HOOK@
PY=@PYTHON@
rc=0
legacy="${0%/*}/$HOOK.legacy"  # (no dirname process on git's path)
if [ -x "$legacy" ]; then
    "$legacy" "$@"
    rc=$?  # a chained hook keeps its own exit status; repomem's part never adds a failure
fi

# Mid-rebase, every replayed commit would run post-commit: skip them, post-rewrite catches up once.
if [ "$HOOK" = post-commit ]; then
    case "${GIT_REFLOG_ACTION:-}" in *rebase*) exit $rc ;; esac
fi
# Where the repository and its store are, with no process on git's path in the usual case (a git
# call costs 5-15 ms): git runs a hook from the top of the work tree as <git common dir>/hooks/
# <hook> (the one folder repomem installs into) and names a worktree's own git dir in $GIT_DIR
# or in its .git file.  Anything else asks git.
hooks="${0%/*}"; case "$hooks" in /*) ;; *) hooks="$PWD/$hooks" ;; esac
common="${hooks%/*}" gitdir="${GIT_DIR:-}"
[ -z "$gitdir" ] && [ -d .git ] && gitdir=.git
[ -z "$gitdir" ] && [ -f .git ] && read -r _ gitdir < .git  # "gitdir: PATH"
case "$gitdir" in /*) ;; ?*) gitdir="$PWD/$gitdir" ;; esac
# git exports these while a hook runs; a nested git call must not inherit them.
unset GIT_DIR GIT_INDEX_FILE GIT_WORK_TREE GIT_PREFIX GIT_OBJECT_DIRECTORY GIT_COMMON_DIR \
    GIT_ALTERNATE_OBJECT_DIRECTORIES GIT_REFLOG_ACTION GIT_NAMESPACE GIT_QUARANTINE_PATH \
    GIT_EDITOR GIT_AUTHOR_DATE GIT_COMMITTER_DATE
if [ ! -f "$common/HEAD" ] || [ ! -f "$gitdir/HEAD" ]; then
    dirs=$(git rev-parse --path-format=absolute --git-dir --git-common-dir 2>/dev/null) || exit $rc
    { read -r gitdir; read -r common; } <<EOF
$dirs
EOF
fi
if [ "$HOOK" = post-commit ]; then
    if [ -d "$gitdir/rebase-merge" ] || [ -d "$gitdir/rebase-apply" ]; then exit $rc; fi
fi

# The store is found from the repository now, never from a path written at install time, so a
# copied or moved repository keeps using its own: $REPOMEM_STORE, else `git config
# repomem.store` (relative to the git common dir), else <git common dir>/repomem.  git is asked
# only when a config file names repomem or includes another one, or git -c / $GIT_CONFIG* is set.
mentions() {
    for f in "$common/config" "$gitdir/config.worktree" "${GIT_CONFIG_GLOBAL:-$HOME/.gitconfig}" \
            "${XDG_CONFIG_HOME:-$HOME/.config}/git/config" "${GIT_CONFIG_SYSTEM:-/etc/gitconfig}"; do
        [ -r "$f" ] || continue
        while IFS= read -r line; do
            case "$line" in *[Rr][Ee][Pp][Oo][Mm][Ee][Mm]*|*[Ii][Nn][Cc][Ll][Uu][Dd][Ee]*) return 0 ;; esac
        done < "$f"
    done
    [ -n "${GIT_CONFIG_PARAMETERS:-}${GIT_CONFIG_COUNT:-}${GIT_CONFIG:-}" ]
}
STORE="${REPOMEM_STORE:-}"
[ -z "$STORE" ] && mentions && STORE=$(git config --get repomem.store 2>/dev/null)
case "$STORE" in
    "") STORE="$common/repomem" ;;
    "~/"*) STORE="$HOME/${STORE#"~/"}" ;;
    /*) ;;
    *) [ -n "${REPOMEM_STORE:-}" ] && STORE="$PWD/$STORE" || STORE="$common/$STORE" ;;
esac
[ -d "$STORE" ] || exit $rc  # no store (repomem init not run): nothing to keep fresh
# One line per request: the work tree it came from (worktrees share the store, each has a view).
printf '%s\n' "$PWD" >> "$STORE/pending" 2>/dev/null
# A running daemon watches the marker: no process is started.  Its liveness is the flock it
# holds on daemon.lock, which names its pid and the lock's fd: that pid still has the file open
# there (Linux; else the worker checks).  An older daemon names no fd: /proc/locks is read.
if read -r dpid dfd 2>/dev/null < "$STORE/daemon.lock"; then
    [ -n "$dfd" ] && [ "/proc/$dpid/fd/$dfd" -ef "$STORE/daemon.lock" ] && exit $rc
    if [ -z "$dfd" ] && [ -r /proc/locks ]; then
        while read -r _ kind _ mode pid _; do
            [ "$kind $mode $pid" = "FLOCK WRITE $dpid" ] && exit $rc
        done < /proc/locks
    fi
fi
# A running worker re-checks the pending marker before it exits: no new process is needed.
read -r pid 2>/dev/null < "$STORE/worker.pid" && kill -0 "$pid" 2>/dev/null && exit $rc
if [ -x "$PY" ]; then  # under nice: the worker's start yields the CPU to git at once
    nice "$PY" -m repomem.integrations.worker "$HOOK" --repo "$PWD" --store "$STORE" </dev/null >/dev/null 2>&1 &
elif command -v repomem >/dev/null 2>&1; then
    repomem hooks run "$HOOK" --repo "$PWD" --store "$STORE" </dev/null >/dev/null 2>&1 &
fi
exit $rc
