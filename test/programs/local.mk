# SPDX-License-Identifier: BSD-2-Clause
# Test programs run under mapsample by test/integration/mapsample-*.sh.
