"""How busy the other programs keep the CPU, and so how many threads a generation should use.

llama.cpp's threads spin at barriers: with as many threads as cores, one competing busy thread
drops the bundled model from ~100 to 25-30 tokens/s on two cores, where one thread keeps 61-75
(issue 10). So before each generation the engine measures what the rest of the machine uses,
from /proc/stat minus this process's own time (/proc/self/stat), over a short window just before
it starts (what ran earlier, while the user typed, says little about now), and leaves those
cores alone. The window costs WINDOW_S of time to first token.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Final

# The window measured before each generation: long enough to see a busy thread (a scheduler
# tick is 4-10 ms), short enough not to be felt.
WINDOW_S: Final = 0.05


@dataclass(frozen=True, slots=True)
class Sample:
    """CPU time counters at one moment, in clock ticks."""

    at: float  # monotonic seconds
    busy: int  # all CPUs, all processes
    total: int  # all CPUs, busy + idle
    own: int  # this process, all its threads


def sample() -> Sample | None:
    """The counters now, or None where /proc is not available (not Linux)."""
    try:
        fields = Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]
        own_fields = Path("/proc/self/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    values = [int(v) for v in fields[:8]]
    user, nice, system, idle, iowait, irq, softirq, steal = values + [0] * (8 - len(values))
    busy = user + nice + system + irq + softirq + steal
    # utime and stime are fields 14 and 15 of /proc/self/stat (12 and 13 after the name).
    own = int(own_fields[11]) + int(own_fields[12])
    return Sample(time.monotonic(), busy, busy + idle + iowait, own)


def others_busy(before: Sample, after: Sample, cpus: int) -> float:
    """How many CPUs the other processes kept busy between two samples."""
    total = after.total - before.total
    if total <= 0:
        return 0.0
    busy_cpus = (after.busy - before.busy) / total * cpus
    per_cpu = total / cpus  # ticks one CPU had in the window
    own_cpus = (after.own - before.own) / per_cpu if per_cpu else 0.0
    return max(0.0, busy_cpus - own_cpus)


def threads_for(cores: int, busy_elsewhere: float) -> int:
    """Threads to use on ``cores`` when others keep ``busy_elsewhere`` CPUs busy: the cores left
    free (a core counts as taken once it is more than a third busy), at least one."""
    taken = int(busy_elsewhere + 2 / 3)
    return max(1, min(cores, cores - taken))


class LoadWatch:
    """Measures the others' load just before each generation."""

    def __init__(self, cores: int, cpus: int | None = None) -> None:
        self.cores = cores
        self.cpus = cpus or os.cpu_count() or cores

    def threads(self) -> int:
        """The thread count for the generation about to start."""
        before = sample()
        if before is None:
            return self.cores
        time.sleep(WINDOW_S)
        after = sample()
        if after is None:
            return self.cores
        return threads_for(self.cores, others_busy(before, after, self.cpus))
