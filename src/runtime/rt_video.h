/* rt_video.h: video files through FFmpeg (rt_video.c) and OpenEXR images (rt_exr.c), both
   loaded with dlopen at run time (no headers at build time; without the libraries each
   function stops with an error naming the library and the Debian package to install).
   docs/library.md, "Video, plots and other formats", has the behaviour. */
#ifndef OQ_RT_VIDEO_H
#define OQ_RT_VIDEO_H
#include "runtime/value.h"

/* The built-ins of this module (vidopen, vidreadframe, vidseek, vidwrite, vidclose,
   exrread, exrwrite), in value.h's Builtin form; NULL when name is none of them. */
const Builtin *rt_media_lookup(const char *name);

/* At the end of the program: finishes the files of writers that vidclose did not close. */
void rt_video_finish(void);

/* EXR (rt_exr.c). exrread returns an "exrimage" handle (fields data, width, height). */
Value rt_exrread(const char *path, SrcLoc loc);
void rt_exrwrite(const char *path, const Array *img, SrcLoc loc);

#endif
