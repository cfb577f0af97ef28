/**
 * Programs that run the command named after their options (`sudo -u x rm y` runs `rm y`), as data: which of
 * their options take a value, and whether the program only changes how its command runs. Read by
 * ./wrappers.ts.
 */

export interface OptionSpec {
  /** Options that take the next word as their value (`-u root`); `--long=value` always carries its own. */
  withValue: string[]
  /** Leading operands before the command (timeout's duration, chroot's new root, taskset's mask). */
  operands?: number
  transparent: boolean
  /** `VAR=value` words may stand before the command (env, sudo). */
  assignments?: boolean
}

export const WRAPPERS: Record<string, OptionSpec> = {
  sudo: { withValue: ["-u", "-g", "-C", "-D", "-h", "-p", "-r", "-t", "-U", "-T", "-R"], transparent: false, assignments: true },
  doas: { withValue: ["-u", "-C"], transparent: false },
  env: { withValue: ["-u", "-C", "-S", "--unset", "--chdir", "--split-string"], transparent: true, assignments: true },
  nice: { withValue: ["-n", "--adjustment"], transparent: true },
  nohup: { withValue: [], transparent: true },
  // The keyword `time` times a pipeline, which may start with assignments (`time x=1 rm y` runs rm).
  time: { withValue: ["-f", "-o", "--format", "--output"], transparent: true, assignments: true },
  timeout: { withValue: ["-s", "-k", "--signal", "--kill-after"], operands: 1, transparent: true },
  stdbuf: { withValue: ["-i", "-o", "-e", "--input", "--output", "--error"], transparent: true },
  ionice: { withValue: ["-c", "-n", "-p", "-P", "-u", "--class", "--classdata"], transparent: true },
  chroot: { withValue: ["--userspec", "--groups"], operands: 1, transparent: false },
  setsid: { withValue: [], transparent: true },
  taskset: { withValue: [], operands: 1, transparent: true },
  chrt: { withValue: [], operands: 1, transparent: true },
  unbuffer: { withValue: [], transparent: true },
  command: { withValue: [], transparent: true },
  builtin: { withValue: [], transparent: true },
  exec: { withValue: ["-a"], transparent: true },
  coproc: { withValue: [], transparent: false, assignments: true },
  xargs: {
    withValue: [
      "-a",
      "-d",
      "-E",
      "-I",
      "-L",
      "-n",
      "-P",
      "-s",
      "--arg-file",
      "--delimiter",
      "--eof",
      "--replace",
      "--max-lines",
      "--max-args",
      "--max-procs",
      "--max-chars",
      "--process-slot-var",
    ],
    transparent: false,
  },
  flock: { withValue: ["-w", "-E", "--timeout", "--conflict-exit-code"], operands: 1, transparent: false },
  // su and runuser: their own argv order (./wrappers.ts userSwitch).
  su: {
    withValue: ["-c", "-s", "-g", "-G", "-w", "--command", "--shell", "--group", "--supp-group", "--whitelist-environment"],
    transparent: false,
  },
  // Tracers and namespace tools run the program named after their options.
  strace: { withValue: ["-o", "-e", "-p", "-s", "-u", "-E", "-a", "-b", "-I", "-O", "-P", "-S", "-X", "-U"], transparent: false },
  ltrace: { withValue: ["-o", "-e", "-p", "-s", "-u", "-a", "-n", "-l", "-L", "-F", "-x", "-A", "-D"], transparent: false },
  valgrind: { withValue: [], transparent: false },
  // Multi-call binaries (`busybox rm x` is rm) and programs that only tune how the next one runs.
  busybox: { withValue: [], transparent: true },
  toybox: { withValue: [], transparent: true },
  eatmydata: { withValue: [], transparent: true },
  nocache: { withValue: [], transparent: true },
  catchsegv: { withValue: [], transparent: true },
  // moreutils' chronic hides its command's output unless it fails; faketime runs it with another clock
  // (its --date-prog names a program: not transparent).
  chronic: { withValue: [], transparent: true },
  faketime: { withValue: ["-p", "--date-prog"], operands: 1, transparent: false },
  numactl: { withValue: ["-N", "-m", "-C", "-p", "-i", "-P"], transparent: true },
  // Programs that run the next one as another user, in other namespaces or limits, or through a proxy: the
  // program itself must be allowed too (transparent: false), and the deny list sees what it runs.
  runuser: {
    withValue: ["-u", "-g", "-G", "-c", "-s", "--user", "--group", "--supp-group", "-w", "--whitelist-environment", "--command", "--shell"],
    transparent: false,
  },
  setpriv: {
    withValue: [
      "--reuid",
      "--regid",
      "--ruid",
      "--rgid",
      "--euid",
      "--egid",
      "--groups",
      "--inh-caps",
      "--ambient-caps",
      "--bounding-set",
      "--securebits",
      "--pdeathsig",
      "--selinux-label",
      "--apparmor-profile",
      "--landlock-access",
      "--landlock-rule",
      "--seccomp-filter",
    ],
    transparent: false,
  },
  nsenter: { withValue: ["-t", "--target", "-S", "--setuid", "-G", "--setgid", "-N", "--net-socket"], transparent: false },
  prlimit: { withValue: ["-p", "--pid", "-o", "--output"], transparent: false },
  pkexec: { withValue: ["--user"], transparent: false },
  cgexec: { withValue: ["-g"], transparent: false },
  "systemd-run": {
    withValue: [
      "-p",
      "--property",
      "-u",
      "--unit",
      "--description",
      "--slice",
      "-E",
      "--setenv",
      "-M",
      "--machine",
      "-H",
      "--host",
      "--uid",
      "--gid",
      "--nice",
      "--working-directory",
      "--on-calendar",
      "--on-active",
      "--timer-property",
      "--path-property",
      "--socket-property",
    ],
    transparent: false,
  },
  "systemd-inhibit": { withValue: ["--what", "--who", "--why", "--mode"], transparent: false },
  "xvfb-run": {
    withValue: [
      "-n",
      "--server-num",
      "-s",
      "--server-args",
      "-f",
      "--auth-file",
      "-e",
      "--error-file",
      "-p",
      "--xauth-protocol",
      "-w",
      "--wait",
    ],
    transparent: false,
  },
  "dbus-run-session": { withValue: ["--config-file", "--dbus-daemon"], transparent: false },
  "ssh-agent": { withValue: ["-a", "-E", "-t", "-P", "-O"], transparent: false },
  sshpass: { withValue: ["-p", "-f", "-d", "-P"], transparent: false },
  torsocks: { withValue: ["-u", "-p", "-a", "-P", "--user", "--pass", "--address", "--port"], transparent: false },
  proxychains: { withValue: ["-f"], transparent: false },
  proxychains4: { withValue: ["-f"], transparent: false },
  firejail: { withValue: [], transparent: false },
  unshare: {
    withValue: [
      "--propagation",
      "--setgroups",
      "--map-user",
      "--map-group",
      "-S",
      "--setuid",
      "-G",
      "--setgid",
      "-R",
      "--root",
      "-w",
      "--wd",
    ],
    transparent: false,
  },
  // `script -c CMD FILE` runs CMD through a shell (without -c, an interactive shell reading its input).
  script: {
    withValue: [
      "-c",
      "--command",
      "-E",
      "--echo",
      "-I",
      "--log-in",
      "-O",
      "--log-out",
      "-B",
      "--log-io",
      "-T",
      "--log-timing",
      "-m",
      "--logging-format",
    ],
    transparent: false,
  },
}
