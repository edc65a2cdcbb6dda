/* abi_check.c: src/runtime/rt_av_abi.h against FFmpeg's own headers (where the -dev packages
   are installed): every offset, constant and soname rt_video.c relies on. Compiling is the
   test (static assertions); running prints the versions. tests/video/run.sh builds it. */
#include <stddef.h>
#include <stdio.h>
#include <libavformat/avformat.h>
#include <libavcodec/avcodec.h>
#include <libavutil/frame.h>
#include <libavutil/pixfmt.h>
#include <libswscale/swscale.h>
#include "runtime/rt_av_abi.h"

#define SAME(a, b) _Static_assert((a) == (b), #a " != " #b)
SAME(OQ_AVFMT_OFORMAT, offsetof(AVFormatContext, oformat));
SAME(OQ_AVFMT_PB, offsetof(AVFormatContext, pb));
SAME(OQ_AVFMT_NB_STREAMS, offsetof(AVFormatContext, nb_streams));
SAME(OQ_AVFMT_STREAMS, offsetof(AVFormatContext, streams));
SAME(OQ_AVFMT_DURATION, offsetof(AVFormatContext, duration));
SAME(OQ_AVOFMT_FLAGS, offsetof(AVOutputFormat, flags));
SAME(OQ_AVST_TIME_BASE, offsetof(AVStream, time_base));
SAME(OQ_AVST_START_TIME, offsetof(AVStream, start_time));
SAME(OQ_AVST_DURATION, offsetof(AVStream, duration));
SAME(OQ_AVST_AVG_FRAME_RATE, offsetof(AVStream, avg_frame_rate));
SAME(OQ_AVST_CODECPAR, offsetof(AVStream, codecpar));
SAME(OQ_AVPAR_WIDTH, offsetof(AVCodecParameters, width));
SAME(OQ_AVPAR_HEIGHT, offsetof(AVCodecParameters, height));
SAME(OQ_AVFRAME_DATA, offsetof(AVFrame, data));
SAME(OQ_AVFRAME_LINESIZE, offsetof(AVFrame, linesize));
SAME(OQ_AVFRAME_WIDTH, offsetof(AVFrame, width));
SAME(OQ_AVFRAME_HEIGHT, offsetof(AVFrame, height));
SAME(OQ_AVFRAME_FORMAT, offsetof(AVFrame, format));
SAME(OQ_AVFRAME_PTS, offsetof(AVFrame, pts));
SAME(OQ_AVFRAME_BEST_TS, offsetof(AVFrame, best_effort_timestamp));
SAME(OQ_AVPKT_STREAM_INDEX, offsetof(AVPacket, stream_index));
SAME(sizeof(OqAvRational), sizeof(AVRational));
SAME(OQ_AVMEDIA_TYPE_VIDEO, AVMEDIA_TYPE_VIDEO);
SAME(OQ_AV_PIX_FMT_YUV420P, AV_PIX_FMT_YUV420P);
SAME(OQ_AV_PIX_FMT_RGB24, AV_PIX_FMT_RGB24);
SAME(OQ_AV_PIX_FMT_BGR24, AV_PIX_FMT_BGR24);
SAME(OQ_AV_PIX_FMT_YUV444P, AV_PIX_FMT_YUV444P);
SAME(OQ_AV_PIX_FMT_GBRP, AV_PIX_FMT_GBRP);
SAME(OQ_AV_PIX_FMT_BGR0, AV_PIX_FMT_BGR0);
SAME(OQ_AV_NOPTS_VALUE, AV_NOPTS_VALUE);
SAME(OQ_AVSEEK_FLAG_BACKWARD, AVSEEK_FLAG_BACKWARD);
SAME(OQ_AVIO_FLAG_WRITE, AVIO_FLAG_WRITE);
SAME(OQ_AVFMT_NOFILE, AVFMT_NOFILE);
SAME(OQ_AVFMT_GLOBALHEADER, AVFMT_GLOBALHEADER);
SAME(OQ_AV_LOG_QUIET, AV_LOG_QUIET);
SAME(OQ_AVERROR_EAGAIN, AVERROR(EAGAIN));
SAME(OQ_AVERROR_EOF, AVERROR_EOF);
SAME(OQ_SWS_BICUBIC, SWS_BICUBIC);
SAME(OQ_SWS_ACCURATE_RND, SWS_ACCURATE_RND);
SAME(OQ_SWS_FULL_CHR_H_INT, SWS_FULL_CHR_H_INT);
/* the pinned sonames are the headers' major versions */
SAME(LIBAVFORMAT_VERSION_MAJOR, 59);
SAME(LIBAVCODEC_VERSION_MAJOR, 59);
SAME(LIBAVUTIL_VERSION_MAJOR, 57);
SAME(LIBSWSCALE_VERSION_MAJOR, 6);

int main(void) {
  printf("abi: FFmpeg headers libavformat %s, libavcodec %s, libavutil %s, libswscale %s: offsets agree\n",
         AV_STRINGIFY(LIBAVFORMAT_VERSION), AV_STRINGIFY(LIBAVCODEC_VERSION), AV_STRINGIFY(LIBAVUTIL_VERSION),
         AV_STRINGIFY(LIBSWSCALE_VERSION));
  return 0;
}
