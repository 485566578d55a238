/* The floor of scripts/process-cost.sh: what `pqkem encaps` does at the OS level, with none of
 * the cryptography, so that a whole pqkem process can be set beside the least a process doing
 * the same file work can cost.
 *
 *   process-floor IN OUT1 OUT2
 *
 * Reads IN, which must be 1184 bytes (an ML-KEM-768 encapsulation key), with fstat + read; gets
 * 32 bytes from getrandom(2); writes OUT1 (1088 bytes, a ciphertext's size: the first 1088
 * bytes of IN) and OUT2 (32 bytes, the random ones), each as pqkem writes a file: an unnamed
 * file in the output directory (open with O_TMPFILE), write, fsync, then linkat through
 * /proc/self/fd, which fails if the name exists; then fsyncs the directory once. OUT1 and OUT2
 * must be in the same directory. Exit 0 on success, 1 with a message on any failure.
 *
 * Plain C, no libraries beyond libc; the script builds it with `cc -O2 -static` so that no
 * dynamic loader runs either. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

enum { IN_SIZE = 1184, CT_SIZE = 1088, SS_SIZE = 32 };

static void fail(const char *what, const char *path) {
  fprintf(stderr, "process-floor: %s %s: %s\n", what, path, strerror(errno));
  exit(1);
}

/* Reads all of PATH into BUF, which must hold exactly SIZE bytes. */
static void read_exact(const char *path, unsigned char *buf, size_t size) {
  int fd = open(path, O_RDONLY | O_CLOEXEC);
  if (fd < 0) fail("cannot open", path);
  struct stat st;
  if (fstat(fd, &st) != 0) fail("cannot stat", path);
  if (st.st_size != (off_t)size) {
    fprintf(stderr, "process-floor: %s: not %zu bytes\n", path, size);
    exit(1);
  }
  size_t got = 0;
  while (got < size) {
    ssize_t n = read(fd, buf + got, size - got);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot read", path);
    got += (size_t)n;
  }
  close(fd);
}

/* Writes BUF to a new file PATH in DIR: unnamed file, write, fsync, then give it its name. */
static void write_new(const char *dir, const char *path, const unsigned char *buf, size_t size,
                      mode_t mode) {
  int fd = open(dir, O_WRONLY | O_TMPFILE | O_CLOEXEC, mode);
  if (fd < 0) fail("cannot create a file in", dir);
  size_t put = 0;
  while (put < size) {
    ssize_t n = write(fd, buf + put, size - put);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) fail("cannot write", path);
    put += (size_t)n;
  }
  if (fsync(fd) != 0) fail("cannot fsync", path);
  char proc[64];
  snprintf(proc, sizeof proc, "/proc/self/fd/%d", fd);
  if (linkat(AT_FDCWD, proc, AT_FDCWD, path, AT_SYMLINK_FOLLOW) != 0) fail("cannot link", path);
  close(fd);
}

int main(int argc, char **argv) {
  if (argc != 4) {
    fprintf(stderr, "usage: process-floor IN OUT1 OUT2\n");
    return 1;
  }
  static unsigned char in[IN_SIZE], ss[SS_SIZE];
  read_exact(argv[1], in, sizeof in);

  size_t got = 0; /* getrandom may return fewer bytes only if interrupted */
  while (got < sizeof ss) {
    ssize_t n = getrandom(ss + got, sizeof ss - got, 0);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) fail("cannot get random bytes", "(getrandom)");
    got += (size_t)n;
  }

  /* dirname may modify its argument, so give it a copy. */
  char dir[PATH_MAX];
  snprintf(dir, sizeof dir, "%s", argv[2]);
  const char *d = dirname(dir);

  write_new(d, argv[2], in, CT_SIZE, 0644);
  write_new(d, argv[3], ss, SS_SIZE, 0600);

  int dfd = open(d, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd < 0) fail("cannot open", d);
  if (fsync(dfd) != 0) fail("cannot fsync", d);
  close(dfd);
  return 0;
}
