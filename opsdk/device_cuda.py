"""opsdk.device.cuda: Paddle's older paddle.device.cuda names for the GPU calls (the same
functions as opsdk.device's): counting, waiting, freeing, memory statistics, properties."""
from .device_memory import (empty_cache, max_memory_allocated, max_memory_reserved,
                            memory_allocated, memory_reserved, reset_max_memory_allocated,
                            reset_max_memory_reserved, synchronize)
from .device_queries import (device_count, get_device_capability, get_device_name,
                             get_device_properties)

__all__ = ["synchronize", "device_count", "empty_cache", "max_memory_allocated",
           "max_memory_reserved", "memory_allocated", "memory_reserved",
           "get_device_properties", "get_device_name", "get_device_capability",
           "reset_max_memory_allocated", "reset_max_memory_reserved"]
