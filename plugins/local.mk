# SPDX-License-Identifier: BSD-2-Clause
# plugins: the built-in metric plugins, each plugins/<name>/<name>.c + .xml.
