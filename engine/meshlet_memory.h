// The meshlet build's memory handling (meshlets.h): its scratch arrays are left uninitialised and
// its result's vectors faulted in on every core before their resize (big_array.h), and scratch
// arrays done with are freed on a thread of their own (background_release.h).
#pragma once
#include "engine/background_release.h"  // BackgroundRelease
#include "engine/big_array.h"           // uninitialized_array, resize_on_every_core
