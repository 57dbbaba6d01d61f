#ifndef RTM_VERSION_H
#define RTM_VERSION_H
#define RTMFS_VERSION "0.1.0"
#endif
