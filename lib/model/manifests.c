/* SPDX-License-Identifier: BSD-2-Clause */
/*
 * manifests: the files substrate plugins wrote, from MANIFEST records
 * (model.h's struct rmanifest).  model.c calls it; it calls nothing of
 * model.c.
 */
#include <stdlib.h>
#include <string.h>

#include <mapsample/maps_error.h>

#include "common/mem.h"
#include "model/model.h"

int model_manifest_add(struct model *m, uint32_t pid, uint32_t image,
		       const struct maplog_ev_manifest *mf)
{
	if (mem_grow(&m->manifests, &m->capmanifests, m->nmanifests,
		     sizeof(*m->manifests)))
		return MAPS_ENOMEM;
	struct rmanifest *r = &m->manifests[m->nmanifests];
	r->pid = pid;
	r->image = image;
	r->plugin = strdup(mf->mf_plugin ? mf->mf_plugin : "");
	r->path = strdup(mf->mf_path ? mf->mf_path : "");
	r->description = strdup(mf->mf_description ? mf->mf_description
						   : "");
	if (!r->plugin || !r->path || !r->description) {
		free(r->plugin);
		free(r->path);
		free(r->description);
		return MAPS_ENOMEM;
	}
	m->nmanifests++;
	return 0;
}

void model_manifests_free(struct model *m)
{
	for (size_t i = 0; i < m->nmanifests; i++) {
		free(m->manifests[i].plugin);
		free(m->manifests[i].path);
		free(m->manifests[i].description);
	}
	free(m->manifests);
	m->manifests = NULL;
	m->nmanifests = m->capmanifests = 0;
}
