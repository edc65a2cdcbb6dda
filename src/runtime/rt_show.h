/* rt_show.h: imshow, hold and title (rt_show.c): a window per image through SDL2 when a
   display is available, else a PNG file per image. docs/images.md has the details. */
#ifndef OQ_RT_SHOW_H
#define OQ_RT_SHOW_H
#include "runtime/value.h"

/* --show-dir DIR: always write files, into DIR (else $OQ_SHOW_DIR, else windows when a
   display is available, files next to the program otherwise). */
void rt_show_set_dir(const char *dir);

/* imshow(img) (range NULL: 0..255), imshow(img, [lo, hi]), imshow(img, []) (range empty:
   the image's minimum..maximum). prog names the program, for file names. */
void rt_imshow(const Array *img, const Array *range, const char *prog, SrcLoc loc);

void rt_show_hold(bool on);            /* hold("on"): the next imshow updates the last window/file */
void rt_show_title(const char *title); /* the title of the next (or current) window */

/* After the program: waits until the user has closed every window (OQ_SHOW_WAIT=0: not). */
void rt_show_finish(void);

#endif
