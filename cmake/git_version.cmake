# Writes atl_version.h with the version and the git commit of the source tree
# (with "-dirty" when it has uncommitted changes), rewriting it only on change.
execute_process(COMMAND git -C "${SRC}" rev-parse --short=12 HEAD OUTPUT_VARIABLE commit
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET RESULT_VARIABLE rc)
if(NOT rc EQUAL 0 OR commit STREQUAL "")
  # A tree from `git archive` (a release tarball, a copy sent to another machine) has no .git, but git wrote
  # the commit into git_commit.txt (export-subst in .gitattributes); a plain copy still says "unknown".
  set(commit "unknown")
  if(EXISTS "${SRC}/cmake/git_commit.txt")
    file(READ "${SRC}/cmake/git_commit.txt" archived LIMIT 64)
    string(STRIP "${archived}" archived)
    if(archived MATCHES "^[0-9a-f]+$")
      string(SUBSTRING "${archived}" 0 12 commit)
    endif()
  endif()
else()
  execute_process(COMMAND git -C "${SRC}" status --porcelain --untracked-files=no OUTPUT_VARIABLE dirty
                  OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT dirty STREQUAL "")
    set(commit "${commit}-dirty")
  endif()
endif()
file(WRITE "${OUT}.tmp" "#define ATL_VERSION \"${VERSION}\"\n#define ATL_GIT_COMMIT \"${commit}\"\n")
execute_process(COMMAND ${CMAKE_COMMAND} -E copy_if_different "${OUT}.tmp" "${OUT}")
file(REMOVE "${OUT}.tmp")
