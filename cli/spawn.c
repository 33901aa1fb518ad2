/* Running another program (gnuplot, ncu, atomlab itself) and waiting for it. */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cli.h"

/* In the child: points descriptor @p target at @p path, or exits 127. */
static void redirect(int target, const char *path, int append)
{
  int fd = open(path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0644);
  if (fd < 0 || dup2(fd, target) < 0)
    _exit(127);
  close(fd);
}

int cli_spawn(const char *path, char *const *argv, const struct cli_spawn_io *io)
{
  fflush(stdout); /* or the child would repeat what is still buffered */
  fflush(stderr);
  pid_t pid = fork();
  if (pid < 0)
    return -1;
  if (pid == 0) {
    if (io && io->dir && chdir(io->dir) != 0)
      _exit(127);
    if (io && io->out)
      redirect(STDOUT_FILENO, io->out, io->append);
    if (io && io->err)
      redirect(STDERR_FILENO, io->err, io->append);
    signal(SIGPIPE, SIG_DFL); /* atomlab ignores it; the program it runs expects the default */
    execv(path, argv);
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR)
      return -1;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + (WIFSIGNALED(status) ? WTERMSIG(status) : 0);
}
