<?xml version="1.0" encoding="UTF-8"?>
<tileset version="1.10" tiledversion="1.10.2" name="dungeon" tilewidth="16" tileheight="16" tilecount="4" columns="4">
 <image source="dungeon.png" width="64" height="16"/>
 <tile id="1">
  <properties>
   <property name="cost" type="float" value="3"/>
  </properties>
 </tile>
 <tile id="2">
  <properties>
   <property name="walkable" type="bool" value="false"/>
  </properties>
 </tile>
 <tile id="3">
  <properties>
   <property name="collides" type="bool" value="true"/>
  </properties>
 </tile>
</tileset>
