/* cli.h: the commands of `oq` other than running a program (main.c). */
#ifndef OQ_CLI_H
#define OQ_CLI_H

/* `oq cache info | clear | prune`: argv[0] is the subcommand. Returns the exit status. */
int cache_command(int argc, char **argv);

#endif
