import sql from 'sql-template-tag';

/**
 * The benchmark's baseline: the same answer as `SITE_TREE_QUERY`'s `site` from one hand-written SQL
 * statement (json_agg), with nothing between the database and the response. `bench:tree` checks that
 * both answers are equal before it measures, so the baseline does all the tree's work: counts of open
 * comments and change requests, published URLs, and the caller's permissions on every space.
 *
 * Permissions come from the caller's organization role alone, which is exact for the benchmark's caller
 * (an organization admin, whom no grant or default level can change); the server also weighs default
 * levels and grants. Parameters: the site id, the server's public URL, the caller's user id.
 */
export const baselineStatement = (siteId: string, publicUrl: string, userId: string) => sql`
with site_row as (
  select s.*,
    case when s.hostname is not null then 'https://' || s.hostname else ${publicUrl} || '/sites/' || s.id end
      || case when s.basename is not null then '/' || s.basename else '' end as base_url,
    (select array_position(array['read', 'comment', 'edit', 'review', 'create', 'admin'], m.role::text)
       from member m where m.organization_id = s.organization_id and m.user_id = ${userId} and not m.disabled) as viewer_rank
  from site s where s.id = ${siteId}
),
space_json as (
  select ss.id as site_space_id, ss.section_id, ss.position, ss.path,
    sp.id as space_id, sp.title, coalesce(sp.emoji, '') as emoji,
    (select count(*) from comment c where c.space_id = sp.id and c.change_request_id is null and c.status = 'open') as comments,
    (select count(*) from change_request cr where cr.space_id = sp.id and cr.status = 'open') as change_requests_open
  from site_row s join site_space ss on ss.site_id = s.id join space sp on sp.id = ss.space_id
),
section_json as (
  -- a section shows all its fields at the top level, fewer inside a group (as the query asks)
  select sec.id, sec.section_group_id, sec.position, case when sec.section_group_id is null then json_build_object(
    'id', sec.id, 'title', sec.title, 'path', sec.path, 'default', sec.id = s.default_section, 'condition', sec.condition,
    'urls', json_build_object('published', case when s.published then s.base_url || '/' || sec.path end),
    'siteSpaces', coalesce((
      select json_agg(json_build_object(
        'id', x.site_space_id, 'path', x.path, 'title', x.title, 'default', x.site_space_id = sec.default_site_space,
        'urls', json_build_object('published', case when s.published then s.base_url || '/' || sec.path || '/' || x.path end),
        'space', json_build_object(
          'id', x.space_id, 'title', x.title, 'emoji', x.emoji,
          'permissions', json_build_object('view', s.viewer_rank >= 1, 'edit', s.viewer_rank >= 3, 'comment', s.viewer_rank >= 2, 'admin', s.viewer_rank >= 6),
          'comments', x.comments, 'changeRequestsOpen', x.change_requests_open)
      ) order by x.position collate "C", x.site_space_id)
      from space_json x where x.section_id = sec.id), '[]'::json)
  ) else json_build_object(
    'id', sec.id, 'title', sec.title, 'path', sec.path,
    'siteSpaces', coalesce((
      select json_agg(json_build_object(
        'id', x.site_space_id, 'path', x.path, 'title', x.title,
        'space', json_build_object(
          'id', x.space_id, 'title', x.title,
          'permissions', json_build_object('view', s.viewer_rank >= 1, 'edit', s.viewer_rank >= 3),
          'comments', x.comments, 'changeRequestsOpen', x.change_requests_open)
      ) order by x.position collate "C", x.site_space_id)
      from space_json x where x.section_id = sec.id), '[]'::json)
  ) end as item
  from site_row s join site_section sec on sec.site_id = s.id
)
select json_build_object(
  'id', s.id, 'title', s.title,
  'siteSpaces', (select count(*) from site_space c where c.site_id = s.id),
  'published', s.published,
  'urls', json_build_object('published', case when s.published then s.base_url end),
  'defaultSiteSection', (select json_build_object('id', sec.id) from site_section sec where sec.id = s.default_section),
  'structure', json_build_object('type', 'sections', 'structure', coalesce((
    select json_agg(t.item order by t.position collate "C", t.id) from (
      select sec.position, sec.id, sec.item from section_json sec where sec.section_group_id is null
      union all
      select g.position, g.id, json_build_object('id', g.id, 'title', g.title, 'sections', coalesce((
        select json_agg(sec.item order by sec.position collate "C", sec.id) from section_json sec where sec.section_group_id = g.id), '[]'::json))
      from site_section_group g where g.site_id = s.id
    ) t), '[]'::json)),
  'sections', json_build_object('count', (select count(*) from site_section sec where sec.site_id = s.id), 'items', coalesce((
    select json_agg(json_build_object('id', sec.id, 'title', sec.title, 'group', case when sec.section_group_id is not null then json_build_object('id', sec.section_group_id) end)
      -- navigation order: a group's sections stand where the group stands
      order by coalesce(g.position, sec.position) collate "C", coalesce(g.id, sec.id), sec.position collate "C", sec.id)
    from site_section sec left join site_section_group g on g.id = sec.section_group_id where sec.site_id = s.id), '[]'::json)),
  'sectionGroups', json_build_object('count', (select count(*) from site_section_group g where g.site_id = s.id), 'items', coalesce((
    select json_agg(json_build_object('id', g.id, 'title', g.title) order by g.position collate "C", g.id)
    from site_section_group g where g.site_id = s.id), '[]'::json))
) as tree
from site_row s`;
