/* rt_av_abi.h: the part of FFmpeg's ABI that rt_video.c uses, declared here so that the
   build needs no FFmpeg headers (the libraries are loaded with dlopen at run time).
   The sonames are pinned to Debian bookworm's FFmpeg 5.1 (libavformat.so.59,
   libavcodec.so.59, libavutil.so.57, libswscale.so.6): FFmpeg keeps the offsets of public
   struct fields within a major version, so the few fields read or written directly
   (no accessor exists for them) are fixed by the soname. tests/video/abi_check.c compares
   every offset below with offsetof() of the real headers where they are installed
   (tools/deps.sh installs them; `make test` runs it). Everything else goes through
   functions and AVOptions (av_opt_set_*). */
#ifndef OQ_RT_AV_ABI_H
#define OQ_RT_AV_ABI_H
#include <stddef.h>
#include <stdint.h>

#define OQ_AV_LIBAVFORMAT "libavformat.so.59"
#define OQ_AV_LIBAVCODEC "libavcodec.so.59"
#define OQ_AV_LIBAVUTIL "libavutil.so.57"
#define OQ_AV_LIBSWSCALE "libswscale.so.6"

typedef struct OqAvRational { int num, den; } OqAvRational;   /* AVRational, passed by value */

/* Field offsets in bytes (x86-64 and other LP64 targets). */
#define OQ_AVFMT_OFORMAT 16        /* AVFormatContext.oformat (const AVOutputFormat *) */
#define OQ_AVFMT_PB 32             /* AVFormatContext.pb (AVIOContext *) */
#define OQ_AVFMT_NB_STREAMS 44     /* AVFormatContext.nb_streams (unsigned) */
#define OQ_AVFMT_STREAMS 48        /* AVFormatContext.streams (AVStream **) */
#define OQ_AVFMT_DURATION 72       /* AVFormatContext.duration (int64_t, microseconds) */
#define OQ_AVOFMT_FLAGS 44         /* AVOutputFormat.flags (int) */
#define OQ_AVST_TIME_BASE 16       /* AVStream.time_base (AVRational) */
#define OQ_AVST_START_TIME 24      /* AVStream.start_time (int64_t) */
#define OQ_AVST_DURATION 32        /* AVStream.duration (int64_t) */
#define OQ_AVST_AVG_FRAME_RATE 72  /* AVStream.avg_frame_rate (AVRational) */
#define OQ_AVST_CODECPAR 208       /* AVStream.codecpar (AVCodecParameters *) */
#define OQ_AVPAR_WIDTH 56          /* AVCodecParameters.width (int) */
#define OQ_AVPAR_HEIGHT 60         /* AVCodecParameters.height (int) */
#define OQ_AVFRAME_DATA 0          /* AVFrame.data (uint8_t *[8]) */
#define OQ_AVFRAME_LINESIZE 64     /* AVFrame.linesize (int[8]) */
#define OQ_AVFRAME_WIDTH 104       /* AVFrame.width (int) */
#define OQ_AVFRAME_HEIGHT 108      /* AVFrame.height (int) */
#define OQ_AVFRAME_FORMAT 116      /* AVFrame.format (int) */
#define OQ_AVFRAME_PTS 136         /* AVFrame.pts (int64_t) */
#define OQ_AVFRAME_BEST_TS 344     /* AVFrame.best_effort_timestamp (int64_t) */
#define OQ_AVPKT_STREAM_INDEX 36   /* AVPacket.stream_index (int) */

/* Constants of the same versions. */
#define OQ_AVMEDIA_TYPE_VIDEO 0
#define OQ_AV_PIX_FMT_YUV420P 0
#define OQ_AV_PIX_FMT_RGB24 2
#define OQ_AV_PIX_FMT_BGR24 3
#define OQ_AV_PIX_FMT_YUV444P 5
#define OQ_AV_PIX_FMT_GBRP 71
#define OQ_AV_PIX_FMT_BGR0 121
#define OQ_AV_NOPTS_VALUE INT64_MIN
#define OQ_AVSEEK_FLAG_BACKWARD 1
#define OQ_AVIO_FLAG_WRITE 2
#define OQ_AVFMT_NOFILE 1
#define OQ_AVFMT_GLOBALHEADER 64
#define OQ_AV_LOG_QUIET (-8)
#define OQ_AVERROR_EAGAIN (-11)
#define OQ_AVERROR_EOF (-541478725)   /* FFERRTAG('E','O','F',' ') */
#define OQ_SWS_BICUBIC 4
#define OQ_SWS_ACCURATE_RND 0x40000
#define OQ_SWS_FULL_CHR_H_INT 0x2000

/* A field of type T at byte offset off of the struct at p. */
#define OQ_AV_FIELD(T, p, off) (*(T *)((char *)(p) + (off)))

#endif
