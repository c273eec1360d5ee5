// The meshlet build's memory handling (meshlets.h): its scratch arrays are left uninitialised, its
// result's BigVectors unwritten until the parallel passes that fill them (big_array.h), and
// scratch arrays done with are freed on a thread of their own (background_release.h).
#pragma once
#include "engine/base/background_release.h"  // BackgroundRelease
#include "engine/base/big_array.h"           // uninitialized_array, resize_on_every_core
